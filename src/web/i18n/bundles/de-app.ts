// German: every other text, which the signed-in shell loads (see ../index.ts).
export const ui = import.meta.glob(
  ['../locales/de/*.json', '!../locales/de/{common,shell,auth,pages}.json'],
  {
    eager: true,
    import: 'default',
  },
)
export const shared = import.meta.glob(
  ['../../../domain/messages/de/*.ts', '!../../../domain/messages/de/{common,auth}.ts'],
  {
    eager: true,
  },
)
