/** The model names of the provider form's text: split at line breaks and commas, blanks dropped. */
export function modelsOfText(text: string): string[] {
  return text
    .split(/[\n,]/)
    .map((name) => name.trim())
    .filter(Boolean)
}
