/** Prompt-Variablen und Kompilieren. */
export const promptVariablesDe = {
  'prompts.variableNameInvalid':
    'Variablennamen beginnen mit einem Buchstaben und enthalten Buchstaben, Ziffern und „_“',
  'prompts.variableTypeInvalid':
    'Der Typ muss Text, Zahl, Wahrheitswert, Auswahl, langer Text oder Liste sein',
  'prompts.variableDescriptionTooLong': 'Die Beschreibung darf höchstens 500 Zeichen lang sein',
  'prompts.variableEnumInvalid':
    'Eine Auswahl-Variable braucht mindestens einen Wert (höchstens 50, je bis zu 200 Zeichen)',
  'prompts.variableDuplicate': 'Die Variable „{name}“ ist doppelt deklariert',
  'prompts.variableDefaultInvalid': 'Der Standardwert von „{name}“ passt nicht zu ihrem Typ',
  'prompts.variablesInvalid': 'Variablen müssen eine Liste von höchstens 100 Deklarationen sein',
  'prompts.variableMissing': 'Die Variable „{name}“ ist erforderlich',
  'prompts.variableWrongType': 'Der Wert von „{name}“ hat den falschen Typ',
  'prompts.variableNotInEnum': 'Der Wert von „{name}“ ist keiner der erlaubten Werte',
  'prompts.variableListTooLong': 'Die Liste „{name}“ hat mehr als 100 Einträge',
  'prompts.variableNotScalar':
    'Der Wert von „{name}“ muss Text, eine Zahl oder wahr/falsch sein (Listen nur für als Liste deklarierte Variablen)',
  'prompts.compileTooLong': 'Der kompilierte Prompt wäre länger als 1.000.000 Zeichen',
  'prompts.compileTooMuchWork':
    'Der Prompt wiederholt seine Abschnitte zu oft, um ihn zu kompilieren (verschachtelte {{#Abschnitte}} über Listen vervielfachen sich)',
  'prompts.tooManyCompiles':
    'Zu viele Kompiliervorgänge. Bitte warte {seconds} Sekunden, bevor du es erneut versuchst.',
  'prompts.templateInvalid': 'Der Prompt ist keine gültige Vorlage (ein nicht geschlossener {{#Abschnitt}}?)',
  'prompts.compileValuesInvalid': 'Werte müssen ein Objekt aus Variablennamen und Werten sein',
  'prompts.labelOrVersion': 'Gib eine Version oder ein Label an, nicht beides',
}
