/** What the app loads of the shell on demand, with `import()`: the signed-in shell around every protected page. */
export { AppShell } from './app-shell.tsx'
