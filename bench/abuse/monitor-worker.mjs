// The abuse harness's watcher, in a worker thread of its own so that the main thread reading a
// 200 MB answer never delays it: asks the server's /api/health every INTERVAL ms (one request at a
// time, each on a new connection as a load balancer's probe: a kept-alive one that the server's
// idle timer closes while it was blocked fails with ECONNRESET, a false alarm) and samples the
// server process's memory from /proc every few ms. Plain JavaScript: tsx's loader does not reach worker threads on
// Node 20.
import { readFileSync } from 'node:fs'
import http from 'node:http'
import { setPriority } from 'node:os'
import { parentPort, workerData } from 'node:worker_threads'

// This thread only (Linux: a thread's own nice value): the watcher keeps the normal priority while
// the harness's main thread steps back (run.ts).
if (process.getuid?.() === 0) setPriority(0, 0)

const INTERVAL = workerData.intervalMs
const RSS_EVERY = 5

let target = { pid: workerData.pid, port: workerData.port }
let window = freshWindow()
/** When the health request now waiting for its answer was sent (null: none is waiting). */
let inFlightSince = null

function freshWindow() {
  return { slowestMs: 0, answers: 0, errors: [], peakRssKb: 0, hwmAtStart: memory().hwm }
}

/** VmRSS and VmHWM (the peak since the process started) in kB; zeros once the process is gone. */
function memory() {
  try {
    const status = readFileSync(`/proc/${target.pid}/status`, 'utf8')
    const field = (name) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0)
    return { rss: field('VmRSS'), hwm: field('VmHWM') }
  } catch {
    return { rss: 0, hwm: 0 }
  }
}

function healthOnce() {
  return new Promise((resolve) => {
    const request = http.get(
      { host: '127.0.0.1', port: target.port, path: '/api/health', agent: false },
      (res) => {
        res.resume()
        res.on('end', () => resolve(res.statusCode === 200 ? null : `health answered ${res.statusCode}`))
        res.on('error', (error) => resolve(error.message))
      },
    )
    request.on('error', (error) => resolve(error.message))
  })
}

async function pollHealth() {
  for (;;) {
    const started = performance.now()
    inFlightSince = started
    const problem = await healthOnce()
    const took = performance.now() - started
    inFlightSince = null
    window.slowestMs = Math.max(window.slowestMs, took)
    window.answers += 1
    if (problem && window.errors.length < 3) window.errors.push(problem)
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, INTERVAL - took)))
  }
}

setInterval(() => {
  window.peakRssKb = Math.max(window.peakRssKb, memory().rss)
}, RSS_EVERY)

parentPort.on('message', async (message) => {
  if (message.type === 'retarget') {
    target = { pid: message.pid, port: message.port }
    window = freshWindow()
    parentPort.postMessage({ type: 'retargeted' })
  } else if (message.type === 'begin') {
    window = freshWindow()
    parentPort.postMessage({ type: 'begun' })
  } else if (message.type === 'end') {
    // At least two answers in every window, so that a case over in 5 ms still measured health.
    const deadline = performance.now() + 2000
    while (window.answers < 2 && performance.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, INTERVAL))
    }
    const waiting = inFlightSince === null ? 0 : performance.now() - inFlightSince
    const { hwm } = memory()
    parentPort.postMessage({
      type: 'ended',
      slowestHealthMs: Math.max(window.slowestMs, waiting),
      healthAnswers: window.answers,
      healthErrors: window.errors,
      // A rise of the process's own high-water mark during the case is the exact peak; else the samples'.
      peakRssKb: Math.max(window.peakRssKb, hwm > window.hwmAtStart ? hwm : 0),
    })
  }
})

void pollHealth()
