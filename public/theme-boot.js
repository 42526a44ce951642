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
// Keys pressed before the app's shortcuts are live, kept from the very start for src/lib/commands/earlyKeys.ts to
// replay (it takes them over when the app's first module runs; issue 37: a Ctrl+K pressed while code loads is not lost).
(function () {
  var keys = [];
  var keep = function (e) {
    if ((e.ctrlKey || e.metaKey) && !e.altKey && String(e.key).toLowerCase() === 'k') e.preventDefault();
    keys.push({ event: e, at: Date.now() });
    if (keys.length > 16) keys.shift();
  };
  addEventListener('keydown', keep);
  window.__earlyKeys = { keys: keys, stop: function () { removeEventListener('keydown', keep); } };
})();
