// English: what every page shows, the sign-in pages included (see ../index.ts).
export const ui = import.meta.glob('../locales/en/{common,shell,auth}.json', {
  eager: true,
  import: 'default',
})
export const shared = import.meta.glob('../../../domain/messages/en/{common,auth}.ts', { eager: true })
