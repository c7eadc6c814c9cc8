import type { Socket } from 'node:net'
import { isIP } from 'node:net'
import type { HttpBindings } from '@hono/node-server'
import type { Context, MiddlewareHandler } from 'hono'
import type { TrustProxy } from '../trust-proxy.ts'
import type { AppEnv } from './env.ts'

/** An address as one spelling: lowercased, IPv4-mapped IPv6 as IPv4; null when it is none. */
export function normalizeAddress(raw: string): string | null {
  let value = raw.trim().toLowerCase()
  // What some proxies write into X-Forwarded-For: "[2001:db8::1]:443" or "192.0.2.1:443".
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(value)
  if (bracketed) value = bracketed[1]!
  else if (/^[\d.]+:\d+$/.test(value)) value = value.slice(0, value.indexOf(':'))
  if (value.startsWith('::ffff:') && isIP(value.slice(7)) === 4) value = value.slice(7)
  return isIP(value) === 0 ? null : value
}

/**
 * The client's address: the TCP peer, or, behind trusted proxies, the address they report in
 * X-Forwarded-For. Each proxy appends the address it was connected from, so the list is read from
 * the right: `hops` entries are skipped, or every entry inside the trusted networks. An entry that
 * a trusted proxy did not write (further left) is never used, and a list that does not parse falls
 * back to the peer.
 */
export function resolveClientAddress(
  peer: string,
  forwardedFor: string | undefined,
  trust: TrustProxy,
): string {
  const chain = [...(forwardedFor ?? '').split(',').filter((entry) => entry.trim() !== ''), peer]
  let index = chain.length - 1
  if (trust.kind === 'hops') index = Math.max(0, index - trust.hops)
  if (trust.kind === 'networks') {
    while (index > 0) {
      const address = normalizeAddress(chain[index]!)
      if (!address || !trust.networks.check(address, isIP(address) === 4 ? 'ipv4' : 'ipv6')) break
      index -= 1
    }
  }
  return normalizeAddress(chain[index]!) ?? peer
}

/** Without a socket (app.request() in tests) the peer is the local machine. */
const NO_SOCKET_PEER = '127.0.0.1'

/** Each connection's peer, normalized once: a kept-alive connection carries many requests. */
const peerOfSocket = new WeakMap<Socket, string>()

function peerAddress(c: Context): string {
  const socket = (c.env as Partial<HttpBindings> | undefined)?.incoming?.socket
  if (!socket) return NO_SOCKET_PEER
  let peer = peerOfSocket.get(socket)
  if (peer === undefined) {
    peer = normalizeAddress(socket.remoteAddress ?? '') ?? NO_SOCKET_PEER
    peerOfSocket.set(socket, peer)
  }
  return peer
}

/** Works out the client's address once per request (see `clientAddress`). */
export function identifyClient(trust: TrustProxy): MiddlewareHandler<AppEnv> {
  // Not async: it has nothing to do after the rest, and an async layer costs every request a promise.
  return (c, next) => {
    const peer = peerAddress(c)
    const forwardedFor = c.req.header('x-forwarded-for')
    // Without the header the chain is the peer alone, which is normalized already.
    c.set(
      'clientAddress',
      forwardedFor === undefined ? peer : resolveClientAddress(peer, forwardedFor, trust),
    )
    return next()
  }
}

/**
 * The one source of the client's address (TRUST_PROXY applied): every rate limit, the session's
 * recorded address and failed sign-ins use it, and so does better-auth (`headersForAuth`).
 */
export function clientAddress(c: RequestWithClient): string {
  return c.var.clientAddress
}

/** Any request context after `identifyClient` (signed-in or not). */
type RequestWithClient = Pick<Context<AppEnv>, 'req'> & { var: { clientAddress: string } }

/**
 * The request header through which better-auth learns the client address (its only source: see
 * `advanced.ipAddress` in auth.ts). Whatever a client sends under this name is overwritten.
 */
export const CLIENT_ADDRESS_HEADER = 'x-promptfolio-client-address'

/**
 * The request header through which the code sign-in tells better-auth's mail hook where to carry
 * on after signing in (the code mail's link). Only the app sets it: a client's is dropped.
 */
export const SIGN_IN_NEXT_HEADER = 'x-promptfolio-sign-in-next'

/** The request's headers for a better-auth call, carrying the trusted client address. */
export function headersForAuth(c: RequestWithClient): Headers {
  const headers = new Headers(c.req.raw.headers)
  headers.set(CLIENT_ADDRESS_HEADER, clientAddress(c))
  headers.delete(SIGN_IN_NEXT_HEADER)
  return headers
}

/**
 * The key that rate limits count an address under: IPv4 addresses one by one, IPv6 addresses by
 * their /64 network (one subscriber's allocation; counting single addresses would leave IPv6
 * clients unlimited).
 */
export function addressGroup(address: string): string {
  const normalized = normalizeAddress(address)
  if (!normalized || isIP(normalized) === 4) return normalized ?? address
  return `${expandIPv6(normalized).slice(0, 4).join(':')}::/64`
}

/** The eight 16-bit groups of an IPv6 address, without leading zeros. */
function expandIPv6(address: string): string[] {
  let text = address
  const embedded = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text)
  if (embedded) {
    const [a, b, c, d] = embedded.slice(1).map(Number) as [number, number, number, number]
    text = `${text.slice(0, embedded.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`
  }
  const [head = '', tail] = text.split('::')
  const left = head === '' ? [] : head.split(':')
  const right = tail === undefined || tail === '' ? [] : tail.split(':')
  const zeros = tail === undefined ? [] : new Array<string>(8 - left.length - right.length).fill('0')
  return [...left, ...zeros, ...right].map((group) => Number.parseInt(group, 16).toString(16))
}
