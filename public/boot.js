;(() => {
  try {
    const theme = localStorage.getItem('promptfolio.theme') || 'system'
    const dark =
      theme === 'dark' || (theme === 'system' && window.matchMedia('(prefers-color-scheme: dark)').matches)
    document.documentElement.classList.toggle('dark', dark)
    const lang = localStorage.getItem('promptfolio.lang')
    if (lang) document.documentElement.lang = lang
  } catch (_) {}
})()
