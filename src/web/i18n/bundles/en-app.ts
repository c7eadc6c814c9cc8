// English: every other text, which the signed-in shell loads (see ../index.ts).
export const ui = import.meta.glob(
  ['../locales/en/*.json', '!../locales/en/{common,shell,auth,pages}.json'],
  {
    eager: true,
    import: 'default',
  },
)
export const shared = import.meta.glob(
  ['../../../domain/messages/en/*.ts', '!../../../domain/messages/en/{common,auth}.ts'],
  {
    eager: true,
  },
)
