// `npm run dev`: the API server (restarted on change) and Vite's dev server with hot reload.
import { spawn } from 'node:child_process'

const port = process.env.PORT ?? '3000'
const children = [
  spawn(process.execPath, ['--import', 'tsx', '--watch', 'src/server/main.ts'], {
    stdio: 'inherit',
    env: { ...process.env, PORT: port, EXTRA_TRUSTED_ORIGINS: 'http://localhost:5173' },
  }),
  spawn(process.execPath, ['node_modules/vite/bin/vite.js'], {
    stdio: 'inherit',
    env: { ...process.env, PORT: port },
  }),
]
console.log('\n  Open http://localhost:5173 (API on port %s)\n', port)
const stop = () => {
  for (const child of children) child.kill('SIGTERM')
}
process.on('SIGINT', stop)
process.on('SIGTERM', stop)
for (const child of children)
  child.on('exit', (code) => {
    stop()
    process.exitCode = code ?? 0
  })
