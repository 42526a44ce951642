// Before the first paint: the remembered theme and language, so nothing flashes or jumps. A file rather than an
// inline script: the Content-Security-Policy allows no inline script (server/http/headers.ts). The same rules as
// src/lib/theme.ts (storedTheme) and src/lib/i18n.ts, which take over once the app has loaded.
(function () {
  try {
    var t = localStorage.getItem('theme');
    if (t !== 'light' && t !== 'dark') t = matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
    document.documentElement.dataset.theme = t;
    document.documentElement.style.colorScheme = t;
    var l = localStorage.getItem('language');
    document.documentElement.lang = l === 'en' ? 'en' : l === 'tib' ? 'bo' : 'zh-CN';
  } catch {
    // No storage: the app applies the system's theme once it starts.
  }
})();
