import { describe, expect, it } from 'vitest'
import { catalogs } from '../../domain/messages/index.ts'
import * as deApp from './bundles/de-app.ts'
import * as dePages from './bundles/de-pages.ts'
import * as deStart from './bundles/de-start.ts'
import * as enApp from './bundles/en-app.ts'
import * as enPages from './bundles/en-pages.ts'
import * as enStart from './bundles/en-start.ts'
import { bundleOf } from './index.ts'
import { namespaces, resources } from './resources.ts'

const bundles = {
  en: { start: enStart, pages: enPages, app: enApp },
  de: { start: deStart, pages: dePages, app: deApp },
}
const nameOf = (file: string) => file.slice(file.lastIndexOf('/') + 1).replace(/\.(json|ts)$/, '')

describe.each(['en', 'de'] as const)('the %s text bundles', (language) => {
  const files = Object.entries(bundles[language])

  it('hold every UI namespace once, in the bundle bundleOf names', () => {
    const found = files.flatMap(([bundle, module]) =>
      Object.keys(module.ui).map((file) => [nameOf(file), bundle] as const),
    )
    expect(found.map(([namespace]) => namespace).sort()).toEqual([...namespaces].sort())
    for (const [namespace, bundle] of found) expect(bundleOf(namespace), namespace).toBe(bundle)
    for (const [, module] of files) {
      for (const [file, catalog] of Object.entries(module.ui)) {
        expect(catalog).toEqual(resources[language][nameOf(file) as keyof (typeof resources)['en']])
      }
    }
  })

  it('hold every shared message once: the errors and sign-in messages at the start', () => {
    const shared = files.flatMap(([bundle, module]) =>
      Object.entries('shared' in module ? module.shared : {}).map(([file, exports]) => ({
        bundle,
        domain: nameOf(file),
        messages: Object.values(exports as Record<string, Record<string, string>>)[0] ?? {},
      })),
    )
    expect(
      shared
        .filter(({ bundle }) => bundle === 'start')
        .map(({ domain }) => domain)
        .sort(),
    ).toEqual(['auth', 'common'])
    const keys = shared.flatMap(({ messages }) => Object.keys(messages))
    expect(keys.sort()).toEqual(Object.keys(catalogs[language]).sort())
  })
})
