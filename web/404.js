// 404.js: the script of 404.html, the page `tak serve` answers for an
// address it does not know: the looks kept in this browser, and the address.
// Bundled by esbuild (the Makefile) into /404.js.
import { applyLooks } from './settings.js';

applyLooks();
document.getElementById('path').textContent = location.pathname;
