/** The MCP server: prompt arguments, tool descriptions and refusals an MCP client shows. */
export const mcpEn = {
  'mcp.argumentOneOf': 'One of: {values}',
  'mcp.argumentNumber': 'A number',
  'mcp.argumentBoolean': 'true or false',
  'mcp.argumentList': 'A JSON list, e.g. ["a", "b"]',
  'mcp.argumentDefault': 'Default: {value}',
  'mcp.argumentPlaceholder':
    'Messages for this place in the chat: a JSON list of objects with "role" and "content"',
  'mcp.listArgumentInvalid': '"{name}" must be a JSON list',
  'mcp.placeholderInvalid': '"{name}" must be a JSON list of messages with "role" and "content"',
  'mcp.promptNotFoundByLabel': 'No prompt "{name}" with the label "{label}" in this space',
  'mcp.promptNotFoundByVersion': 'No prompt "{name}" with version {version} in this space',
  'mcp.toolUnknown': 'Unknown tool "{name}"',
  'mcp.invalidArguments': 'Invalid arguments: {problems}',
  'mcp.toolListPrompts':
    'Lists the prompts of this space by name, with their production version, labels, tags and arguments. Filters: search (in name, title and description), tag, label. Pages with cursor.',
  'mcp.toolGetPrompt':
    'Gets one version of a prompt (label, else version, else production). Compiled with "values" by default; raw: the template with its declared variables, config and labels.',
  'mcp.toolCreatePromptVersion':
    'Creates a new version of a prompt (the prompt too when the name is new), with labels, tags, config, declared variables and a commit message. Needs a read-write key.',
  'mcp.toolMoveLabel':
    'Moves a label to a version of a prompt. Protected labels are moved by team admins in the app only. Needs a read-write key.',
} as const
