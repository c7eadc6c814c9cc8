// English: the legal and error pages' texts (see ../index.ts).
export const ui = import.meta.glob('../locales/en/pages.json', { eager: true, import: 'default' })
