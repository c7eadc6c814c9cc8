import { z } from 'zod'

const uuid = z.uuid()

/** Our ids are uuids; any other text cannot name one of our objects (answered as not found). */
export function isUuid(value: string | undefined): value is string {
  return uuid.safeParse(value).success
}
