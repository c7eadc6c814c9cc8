// German: the legal and error pages' texts (see ../index.ts).
export const ui = import.meta.glob('../locales/de/pages.json', { eager: true, import: 'default' })
