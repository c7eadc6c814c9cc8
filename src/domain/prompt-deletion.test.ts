import { describe, expect, it } from 'vitest'
import { type DeletionEffect, deletionBreaks } from './prompt-deletion.ts'
import type { PromptReference } from './prompt-references.ts'

const byVersion = (version: number): PromptReference => ({ tag: '', name: 'p', kind: 'version', version })
const byLabel = (label: string): PromptReference => ({ tag: '', name: 'p', kind: 'label', label })
const deleting = (versions: number[], labels: string[]): DeletionEffect => ({
  all: false,
  versions: new Set(versions),
  labels: new Set(labels),
})

describe('which references a delete breaks', () => {
  it('breaks a reference to a deleted version, or to a label only the deleted versions hold', () => {
    const effect = deleting([1], ['production'])
    expect(deletionBreaks(byVersion(1), effect)).toBe(true)
    expect(deletionBreaks(byVersion(2), effect)).toBe(false)
    expect(deletionBreaks(byLabel('production'), effect)).toBe(true)
    expect(deletionBreaks(byLabel('staging'), effect)).toBe(false)
  })

  it('keeps latest while a version remains (it moves), and breaks everything when the prompt goes', () => {
    expect(deletionBreaks(byLabel('latest'), deleting([3], []))).toBe(false)
    const all: DeletionEffect = { all: true, versions: new Set(), labels: new Set() }
    for (const reference of [byVersion(9), byLabel('latest'), byLabel('unheld')]) {
      expect(deletionBreaks(reference, all)).toBe(true)
    }
  })
})
