/** Prompt-Variablen und Kompilieren (Issue 17). */
export const promptVariablesDe = {
  'prompts.variableNameInvalid':
    'Variablennamen beginnen mit einem Buchstaben und enthalten Buchstaben, Ziffern und „_“',
  'prompts.variableTypeInvalid': 'Der Typ muss Text, Zahl, Wahrheitswert, Auswahl oder langer Text sein',
  'prompts.variableDescriptionTooLong': 'Die Beschreibung darf höchstens 500 Zeichen lang sein',
  'prompts.variableEnumInvalid':
    'Eine Auswahl-Variable braucht mindestens einen Wert (höchstens 50, je bis zu 200 Zeichen)',
  'prompts.variableDuplicate': 'Die Variable „{name}“ ist doppelt deklariert',
  'prompts.variableDefaultInvalid': 'Der Standardwert von „{name}“ passt nicht zu ihrem Typ',
  'prompts.variablesInvalid': 'Variablen müssen eine Liste von höchstens 100 Deklarationen sein',
  'prompts.variableMissing': 'Die Variable „{name}“ ist erforderlich',
  'prompts.variableWrongType': 'Der Wert von „{name}“ hat den falschen Typ',
  'prompts.variableNotInEnum': 'Der Wert von „{name}“ ist keiner der erlaubten Werte',
  'prompts.templateInvalid': 'Der Prompt ist keine gültige Vorlage (ein nicht geschlossener {{#Abschnitt}}?)',
  'prompts.compileValuesInvalid': 'Werte müssen ein Objekt aus Variablennamen und Werten sein',
  'prompts.labelOrVersion': 'Gib eine Version oder ein Label an, nicht beides',
}
