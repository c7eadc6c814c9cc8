import { useTranslation } from 'react-i18next'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.tsx'
import { CodeBlock } from '../../components/ui/code-block.tsx'
import {
  envSnippet,
  javascriptSnippet,
  mcpSnippet,
  mcpUrl,
  useSnippetComments,
  vscodeMcpSnippet,
} from './snippets.ts'

/** How to use a key: the environment and a JavaScript call, and the MCP clients' configuration. */
export function UsageCards() {
  const { t } = useTranslation('publicApi')
  const comments = useSnippetComments()
  return (
    <>
      <Card>
        <CardHeader>
          <CardTitle>{t('usage')}</CardTitle>
          <CardDescription>{t('usageText')}</CardDescription>
        </CardHeader>
        <CardContent className="space-y-3">
          <CodeBlock label={t('usage')} className="text-xs">
            {envSnippet(window.location.origin)}
          </CodeBlock>
          <CodeBlock label={t('javascript')} className="text-xs">
            {javascriptSnippet('support/triage', comments)}
          </CodeBlock>
        </CardContent>
      </Card>
      <Card role="region" aria-label={t('mcpTitle')}>
        <CardHeader>
          <CardTitle>{t('mcpTitle')}</CardTitle>
          <CardDescription>{t('mcpText', { url: mcpUrl(window.location.origin) })}</CardDescription>
        </CardHeader>
        <CardContent className="space-y-3">
          {/* Each client reads its own file format: the caption says which block goes where. */}
          <p className="text-sm font-medium">{t('mcpCreated')}</p>
          <CodeBlock label={t('mcpCreated')} className="text-xs">
            {mcpSnippet(window.location.origin)}
          </CodeBlock>
          <p className="text-sm font-medium">{t('mcpVscode')}</p>
          <CodeBlock label={t('mcpVscode')} className="text-xs">
            {vscodeMcpSnippet(window.location.origin)}
          </CodeBlock>
        </CardContent>
      </Card>
    </>
  )
}
