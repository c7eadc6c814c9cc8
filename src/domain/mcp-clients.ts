/**
 * How MCP clients connect to this installation's MCP server (decision 0253): its path and the
 * configuration blocks the API Access page shows. Kept apart from the server's rules (mcp.ts) so
 * that the web app loads only these few lines.
 */

/** Where the MCP server answers (Streamable HTTP), below the app's origin. */
export const MCP_PATH = '/api/public/mcp'

/** The `mcpServers` entry most clients read (Cursor, Claude Code's `.mcp.json`, Windsurf…). */
export function mcpServersConfig(url: string, secretKey: string): string {
  return JSON.stringify(
    {
      mcpServers: {
        promptfolio: { type: 'http', url, headers: { Authorization: `Bearer ${secretKey}` } },
      },
    },
    null,
    2,
  )
}

/** VS Code's `.vscode/mcp.json`, which names its servers `servers`. */
export function vscodeMcpConfig(url: string, secretKey: string): string {
  return JSON.stringify(
    { servers: { promptfolio: { type: 'http', url, headers: { Authorization: `Bearer ${secretKey}` } } } },
    null,
    2,
  )
}
