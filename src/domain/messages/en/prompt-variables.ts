/** Prompt variables and compile (issue 17). */
export const promptVariablesEn = {
  'prompts.variableNameInvalid': 'Variable names start with a letter and use letters, digits and "_"',
  'prompts.variableTypeInvalid': 'Type must be string, number, boolean, enum or long text',
  'prompts.variableDescriptionTooLong': 'Description must be at most 500 characters',
  'prompts.variableEnumInvalid':
    'An enum variable needs at least one value (at most 50, each up to 200 characters)',
  'prompts.variableDuplicate': 'The variable "{name}" is declared twice',
  'prompts.variableDefaultInvalid': 'The default of "{name}" does not fit its type',
  'prompts.variablesInvalid': 'Variables must be a list of at most 100 declarations',
  'prompts.variableMissing': 'The variable "{name}" is required',
  'prompts.variableWrongType': 'The value of "{name}" has the wrong type',
  'prompts.variableNotInEnum': 'The value of "{name}" is not one of its allowed values',
  'prompts.templateInvalid': 'The prompt is not a valid template (an unclosed {{#section}}?)',
  'prompts.compileValuesInvalid': 'Values must be an object of variable names to values',
  'prompts.labelOrVersion': 'Give a version or a label, not both',
} as const
