/** One 10-second window of a soak run: the server's RSS at its end and the latencies in it. */
export interface SoakWindow {
  /** Seconds since the load started, at the window's end. */
  second: number
  rssMb: number
  requests: number
  errors: number
  p50: number
  p99: number
}

/** RSS's lows and highs may grow by this share from the first half after warm-up to the second and count as flat. */
const FLAT_TOLERANCE = 0.1

const mean = (values: number[]) => values.reduce((sum, v) => sum + v, 0) / Math.max(1, values.length)
const round = (value: number) => Math.round(value * 10) / 10

/** Least-squares slope of y over x. */
function slope(points: { x: number; y: number }[]): number {
  const mx = mean(points.map((p) => p.x))
  const my = mean(points.map((p) => p.y))
  const num = points.reduce((sum, p) => sum + (p.x - mx) * (p.y - my), 0)
  const den = points.reduce((sum, p) => sum + (p.x - mx) ** 2, 0)
  return den === 0 ? 0 : num / den
}

/**
 * The figures of a run: totals; RSS after warm-up, split in two halves, each with its low and high
 * (RSS breathes with the garbage collector, so a mean depends on where the peaks fall); flat when
 * neither the low nor the high of the second half is more than 10% above the first's; the slope;
 * the p99s of the windows.
 */
export function summarizeSoak(windows: SoakWindow[], warmupSeconds: number) {
  const measured = windows.filter((w) => w.second > warmupSeconds)
  const half = Math.ceil(measured.length / 2)
  const range = (part: SoakWindow[]) => ({
    min: Math.min(...part.map((w) => w.rssMb)),
    max: Math.max(...part.map((w) => w.rssMb)),
  })
  const [first, second] = [range(measured.slice(0, half)), range(measured.slice(half))]
  const p99s = measured.map((w) => w.p99).sort((a, b) => a - b)
  return {
    requests: windows.reduce((sum, w) => sum + w.requests, 0),
    errors: windows.reduce((sum, w) => sum + w.errors, 0),
    rssAtStartMb: windows[0]?.rssMb ?? null,
    rssAtEndMb: windows.at(-1)?.rssMb ?? null,
    rssFirstHalf: first,
    rssSecondHalf: second,
    rssSlopeMbPerMinute: round(slope(measured.map((w) => ({ x: w.second / 60, y: w.rssMb })))),
    rssFlat:
      measured.length >= 2 &&
      second.min <= first.min * (1 + FLAT_TOLERANCE) &&
      second.max <= first.max * (1 + FLAT_TOLERANCE),
    p99MedianMs: p99s[Math.floor(p99s.length / 2)] ?? null,
    p99WorstMs: p99s.at(-1) ?? null,
  }
}

/** One line chart: `values` over the windows' seconds, y from 0, the warm-up shaded. */
function chart(
  windows: SoakWindow[],
  values: number[],
  options: { top: number; label: string; unit: string; color: string; warmupSeconds: number },
): string {
  const [left, width, height] = [60, 680, 160]
  const maxX = Math.max(...windows.map((w) => w.second), 1)
  const maxY = Math.max(...values, 1) * 1.15
  const x = (second: number) => left + (second / maxX) * width
  const y = (value: number) => options.top + height - (value / maxY) * height
  const points = windows.map((w, i) => `${x(w.second).toFixed(1)},${y(values[i]!).toFixed(1)}`).join(' ')
  const ticks = [0, 0.25, 0.5, 0.75, 1].map((f) => {
    const value = maxY * f
    return `<line x1="${left}" x2="${left + width}" y1="${y(value)}" y2="${y(value)}" stroke="#ddd"/>
<text x="${left - 6}" y="${y(value) + 4}" text-anchor="end">${value.toFixed(0)}</text>`
  })
  const xTicks = Array.from({ length: 6 }, (_, i) => (maxX / 5) * i).map(
    (second) =>
      `<text x="${x(second)}" y="${options.top + height + 16}" text-anchor="middle">${Math.round(second)} s</text>`,
  )
  return `<rect x="${left}" y="${options.top}" width="${x(options.warmupSeconds) - left}" height="${height}" fill="#f3f3f3"/>
${ticks.join('\n')}
${xTicks.join('\n')}
<text x="${left}" y="${options.top - 8}" font-weight="bold">${options.label} (${options.unit})</text>
<polyline points="${points}" fill="none" stroke="${options.color}" stroke-width="2"/>`
}

/** The RSS curve and the p99 per window as a small self-contained SVG. */
export function soakSvg(windows: SoakWindow[], warmupSeconds: number, title: string): string {
  const summary = summarizeSoak(windows, warmupSeconds)
  return `<svg xmlns="http://www.w3.org/2000/svg" width="780" height="470" font-family="sans-serif" font-size="11">
<rect width="100%" height="100%" fill="white"/>
<text x="60" y="20" font-size="14" font-weight="bold">Soak: ${title}; ${summary.requests} requests, ${summary.errors} errors</text>
${chart(
  windows,
  windows.map((w) => w.rssMb),
  {
    top: 50,
    label: `Server RSS, ${summary.rssFlat ? 'flat' : 'growing'} after warm-up (shaded)`,
    unit: 'MB',
    color: '#1f6feb',
    warmupSeconds,
  },
)}
${chart(
  windows,
  windows.map((w) => w.p99),
  { top: 270, label: 'p99 latency per 10 s window', unit: 'ms', color: '#d1242f', warmupSeconds },
)}
</svg>
`
}
