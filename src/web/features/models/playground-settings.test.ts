import { describe, expect, it } from 'vitest'
import type { ModelProvider } from '../../../domain/models.ts'
import {
  choiceOf,
  draftConfigOf,
  initialSettings,
  labelsOf,
  parametersOf,
  type Settings,
  selectorOf,
  storedForm,
} from './playground-settings.ts'

const settings = (over: Partial<Settings> = {}): Settings => ({
  providerId: 'p',
  model: 'm',
  temperature: '',
  maxTokens: '',
  ...over,
})

const provider = (id: string, models: string[], defaultModel = ''): ModelProvider => ({
  id,
  teamId: null,
  kind: 'openai_compatible',
  name: id,
  baseUrl: 'https://example.com/v1',
  keyHint: '…abcd',
  models,
  defaultModel,
  createdAt: '',
  updatedAt: '',
})

describe('initialSettings', () => {
  it('picks the provider that lists the config’s model, with the config’s parameters', () => {
    const providers = [provider('a', ['x'], 'x'), provider('b', ['gpt'], 'gpt')]
    expect(initialSettings(providers, { model: 'gpt', temperature: 0.5, maxTokens: 9 })).toEqual({
      providerId: 'b',
      model: 'gpt',
      temperature: '0.5',
      maxTokens: '9',
    })
    expect(initialSettings(providers, {})).toEqual({
      providerId: 'a',
      model: 'x',
      temperature: '',
      maxTokens: '',
    })
  })
})

describe('parametersOf', () => {
  it('leaves blank fields out and refuses values out of range', () => {
    expect(parametersOf(settings({ temperature: ' ', maxTokens: '12' })).data).toEqual({ maxTokens: 12 })
    expect(parametersOf(settings({ temperature: '3' })).success).toBe(false)
  })
})

describe('draftConfigOf', () => {
  it('writes the fields over the JSON, keeping the rest and the config’s own max tokens key', () => {
    const result = draftConfigOf(
      '{"model":"old","maxTokens":5,"max_output_tokens":7,"stop":["\\n"]}',
      settings({ model: ' new ', temperature: '0.2', maxTokens: '64' }),
    )
    expect(result).toEqual({
      ok: true,
      config: { model: 'new', temperature: 0.2, maxTokens: 64, stop: ['\n'] },
    })
  })

  it('drops a setting whose field is blank, and takes blank JSON as no config', () => {
    expect(draftConfigOf('{"temperature":1,"max_tokens":3}', settings({ model: '' }))).toEqual({
      ok: true,
      config: {},
    })
    expect(draftConfigOf('', settings())).toEqual({ ok: true, config: { model: 'm' } })
  })

  it('says why the JSON is refused', () => {
    expect(draftConfigOf('[1]', settings())).toEqual({ ok: false, error: 'prompts.configInvalid' })
    expect(draftConfigOf('{', settings())).toEqual({ ok: false, error: 'prompts.configInvalid' })
    const deep = `${'{"a":'.repeat(21)}1${'}'.repeat(21)}`
    expect(draftConfigOf(deep, settings())).toEqual({ ok: false, error: 'prompts.configTooDeep' })
  })
})

describe('version choices', () => {
  const versions = [
    { id: 'v2', labels: ['production', 'latest'] },
    { id: 'v1', labels: ['staging'] },
  ]

  it('finds a version by id and a label by the version holding it', () => {
    expect(choiceOf('version:v1', versions)).toEqual({ kind: 'version', versionId: 'v1' })
    expect(choiceOf('label:staging', versions)).toEqual({ kind: 'label', label: 'staging', versionId: 'v1' })
    expect(choiceOf('label:gone', versions)).toBeNull()
    expect(choiceOf('version:v9', versions)).toBeNull()
    expect(labelsOf(versions)).toEqual(['production', 'latest', 'staging'])
  })

  it('runs a label by its name and a version by its number', () => {
    expect(selectorOf({ kind: 'label', label: 'staging', versionId: 'v1' }, { versionNumber: 1 })).toEqual({
      label: 'staging',
    })
    expect(selectorOf({ kind: 'version', versionId: 'v1' }, { versionNumber: 1 })).toEqual({ version: 1 })
  })
})

describe('storedForm', () => {
  it('writes chat entries as the server stores them, and leaves text and unparsable bodies alone', () => {
    const stored = storedForm('chat', '[ { "content": "Hi", "role": "user" } ]')
    expect(stored).toBe(storedForm('chat', '[{"role":"user","content":"Hi"}]'))
    expect(JSON.parse(stored)).toEqual([{ role: 'user', content: 'Hi' }])
    expect(storedForm('chat', 'not json')).toBe('not json')
    expect(storedForm('text', ' Hi ')).toBe(' Hi ')
  })
})
