import { describe, expect, it } from 'vitest'
import { planModeNotice } from './plan-mode.ts'

describe('the start-up notice of the plan mode', () => {
  it('says plans are on and how to turn them off', () => {
    expect(planModeNotice(true)).toMatch(/^PLANS=on: .*paywall.*PLANS=off/)
  })

  it('says plans are off', () => {
    expect(planModeNotice(false)).toMatch(/^PLANS=off: no trials, limits or paywall/)
  })
})
