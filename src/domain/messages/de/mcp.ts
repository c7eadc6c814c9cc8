/** Der MCP-Server: Prompt-Argumente, Tool-Beschreibungen und Ablehnungen, die ein MCP-Client zeigt. */
export const mcpDe = {
  'mcp.argumentOneOf': 'Einer von: {values}',
  'mcp.argumentNumber': 'Eine Zahl',
  'mcp.argumentBoolean': 'true oder false',
  'mcp.argumentList': 'Eine JSON-Liste, z. B. ["a", "b"]',
  'mcp.argumentDefault': 'Standard: {value}',
  'mcp.argumentPlaceholder':
    'Nachrichten für diese Stelle im Chat: eine JSON-Liste von Objekten mit "role" und "content"',
  'mcp.listArgumentInvalid': '„{name}“ muss eine JSON-Liste sein',
  'mcp.placeholderInvalid': '„{name}“ muss eine JSON-Liste von Nachrichten mit "role" und "content" sein',
  'mcp.promptNotFoundByLabel': 'Kein Prompt „{name}“ mit dem Label „{label}“ in diesem Bereich',
  'mcp.promptNotFoundByVersion': 'Kein Prompt „{name}“ mit Version {version} in diesem Bereich',
  'mcp.toolUnknown': 'Unbekanntes Tool „{name}“',
  'mcp.invalidArguments': 'Ungültige Argumente: {problems}',
  'mcp.toolListPrompts':
    'Listet die Prompts dieses Bereichs nach Namen, mit Produktionsversion, Labels, Tags und Argumenten. Filter: search (in Name, Titel und Beschreibung), tag, label. Blättern mit cursor.',
  'mcp.toolGetPrompt':
    'Holt eine Version eines Prompts (Label, sonst Version, sonst Produktion). Standardmäßig mit "values" kompiliert; raw: die Vorlage mit ihren deklarierten Variablen, Config und Labels.',
  'mcp.toolCreatePromptVersion':
    'Legt eine neue Version eines Prompts an (bei neuem Namen auch den Prompt), mit Labels, Tags, Config, deklarierten Variablen und Commit-Nachricht. Braucht einen Schlüssel mit Lese- und Schreibrecht.',
  'mcp.toolMoveLabel':
    'Setzt ein Label auf eine Version eines Prompts. Geschützte Labels setzen nur Team-Admins in der App. Braucht einen Schlüssel mit Lese- und Schreibrecht.',
} as const
