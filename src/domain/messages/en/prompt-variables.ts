/** Prompt variables and compile. */
export const promptVariablesEn = {
  'prompts.variableNameInvalid': 'Variable names start with a letter and use letters, digits and "_"',
  'prompts.variableTypeInvalid': 'Type must be string, number, boolean, enum, long text or list',
  'prompts.variableDescriptionTooLong': 'Description must be at most 500 characters',
  'prompts.variableEnumInvalid':
    'An enum variable needs at least one value (at most 50, each up to 200 characters)',
  'prompts.variableDuplicate': 'The variable "{name}" is declared twice',
  'prompts.variableDefaultInvalid': 'The default of "{name}" does not fit its type',
  'prompts.variablesInvalid': 'Variables must be a list of at most 100 declarations',
  'prompts.variableMissing': 'The variable "{name}" is required',
  'prompts.variableWrongType': 'The value of "{name}" has the wrong type',
  'prompts.variableNotInEnum': 'The value of "{name}" is not one of its allowed values',
  'prompts.variableListTooLong': 'The list "{name}" has more than 100 items',
  'prompts.variableNotScalar':
    'The value of "{name}" must be text, a number or true/false (lists only for variables declared as lists)',
  'prompts.compileTooLong': 'The compiled prompt would be longer than 1,000,000 characters',
  'prompts.compileTooMuchWork':
    'The prompt repeats its sections too often to compile (nested {{#sections}} over lists multiply)',
  'prompts.tooManyCompiles': 'Too many compiles. Please wait {seconds} seconds before trying again.',
  'prompts.templateInvalid': 'The prompt is not a valid template (an unclosed {{#section}}?)',
  'prompts.compileValuesInvalid': 'Values must be an object of variable names to values',
  'prompts.labelOrVersion': 'Give a version or a label, not both',
} as const
