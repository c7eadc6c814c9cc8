import { useTranslation } from 'react-i18next'
import { MCP_PATH, mcpServersConfig, vscodeMcpConfig } from '../../../domain/mcp-clients.ts'

/**
 * The code that fetches a prompt with the Langfuse SDKs pointed at this installation, for the
 * settings page and the prompt detail page.
 */
export function envSnippet(origin: string, publicKey = 'pk-pf-…', secretKey = 'sk-pf-…'): string {
  return [
    `LANGFUSE_BASE_URL=${origin}`,
    `LANGFUSE_PUBLIC_KEY=${publicKey}`,
    `LANGFUSE_SECRET_KEY=${secretKey}`,
  ].join('\n')
}

/** The snippets' comments, in the UI language (`useSnippetComments`). */
interface SnippetComments {
  jsReads: string
  jsVariables: string
  pyReads: string
  pyVariables: string
}

export function useSnippetComments(): SnippetComments {
  const { t } = useTranslation('publicApi')
  return {
    jsReads: t('snippetComments.jsReads'),
    jsVariables: t('snippetComments.jsVariables'),
    pyReads: t('snippetComments.pyReads'),
    pyVariables: t('snippetComments.pyVariables'),
  }
}

export function javascriptSnippet(name: string, comments: SnippetComments, label = 'production'): string {
  return [
    "import { LangfuseClient } from '@langfuse/client'",
    '',
    `// ${comments.jsReads}`,
    'const langfuse = new LangfuseClient()',
    `const prompt = await langfuse.prompt.get(${JSON.stringify(name)}, { label: ${JSON.stringify(label)} })`,
    `const text = prompt.compile({ /* ${comments.jsVariables} */ })`,
  ].join('\n')
}

export function pythonSnippet(name: string, comments: SnippetComments, label = 'production'): string {
  return [
    'from langfuse import get_client',
    '',
    `# ${comments.pyReads}`,
    'langfuse = get_client()',
    `prompt = langfuse.get_prompt(${JSON.stringify(name)}, label=${JSON.stringify(label)})`,
    `text = prompt.compile()  # ${comments.pyVariables}`,
  ].join('\n')
}

/**
 * The same fetch with curl: the Langfuse REST route, the name URL-encoded (a folder's slash
 * too), the key pair from the same environment variables the SDKs read.
 */
export function curlSnippet(origin: string, name: string, label = 'production'): string {
  return [
    'curl -u "$LANGFUSE_PUBLIC_KEY:$LANGFUSE_SECRET_KEY" \\',
    `  "${origin}/api/public/v2/prompts/${encodeURIComponent(name)}?label=${encodeURIComponent(label)}"`,
  ].join('\n')
}

/** The MCP server's address on this installation. */
export const mcpUrl = (origin: string) => `${origin}${MCP_PATH}`

/** The `mcpServers` block most MCP clients read, with a secret key (or its placeholder). */
export function mcpSnippet(origin: string, secretKey = 'sk-pf-…'): string {
  return mcpServersConfig(mcpUrl(origin), secretKey)
}

/** VS Code's `.vscode/mcp.json`. */
export function vscodeMcpSnippet(origin: string, secretKey = 'sk-pf-…'): string {
  return vscodeMcpConfig(mcpUrl(origin), secretKey)
}
