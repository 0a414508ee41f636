/**
 * The dependency rules of askcode (ARCHITECTURE.md, STYLE.md), checked by `npm run lint:deps`,
 * which `npm test` runs. A rule broken here is a design change: change the design first.
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No import cycles: each module can be read (and tested) after the ones it imports.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'server-no-vscode',
      severity: 'error',
      comment: 'The worker, the bridge and the CLI run outside VS Code: server/ never imports vscode.',
      from: { path: '^server/' },
      to: { path: '^vscode$', dependencyTypes: ['core', 'npm', 'npm-dev', 'unknown', 'undetermined', 'npm-no-pkg', 'npm-unknown'] },
    },
    {
      name: 'index-not-qgpt',
      severity: 'error',
      comment: 'The index finds snippets; answering them is qgpt/. ops/ joins the two.',
      from: { path: '^server/src/index/' },
      to: { path: '^server/src/qgpt/' },
    },
    {
      name: 'areas-not-faces',
      severity: 'error',
      comment: 'The areas and the core are libraries: they never import a face (bridge, CLI, worker main) or the operations layer.',
      // createCore (core/core.ts) is the one place that wires ops/ to the areas.
      from: { path: '^server/src/(core|index|qgpt|models|protocol)/', pathNot: '^server/src/core/core\\.ts$' },
      to: { path: '^server/src/(bridge/|cli/|cli\\.ts$|main\\.ts$|ops/)' },
    },
    {
      name: 'areas-not-core-root',
      severity: 'error',
      comment: 'Areas get their dependencies from createCore; they never reach back to it.',
      from: { path: '^server/src/(index|qgpt|models|protocol|ops)/' },
      to: { path: '^server/src/core/core\\.ts$' },
    },
    {
      name: 'no-other-areas-validators',
      severity: 'error',
      comment: "Input is validated once, at the door (the protocol's schemas): no area uses another area's validators.",
      from: { path: '^server/src/([^/]+)/' },
      // core/validation.ts is the door itself (the schema check every call goes through).
      to: { path: '^server/src/[^/]+/(validate|validation)\\.ts$', pathNot: '^server/src/($1|core)/' },
    },
    {
      name: 'protocol-is-portable',
      severity: 'error',
      comment: 'The protocol is imported by the webview (a browser frame): no Node built-in, no other server module.',
      from: { path: '^server/src/protocol/' },
      to: { pathNot: '^(server/src/protocol/|node_modules/zod/)' },
    },
    {
      name: 'faces-see-only-protocol',
      severity: 'error',
      comment: 'client/ (the extension host) and webview/ import from server/ only the protocol.',
      from: { path: '^(client|webview)/' },
      to: { path: '^server/', pathNot: '^server/src/protocol/' },
    },
    {
      name: 'webview-no-node',
      severity: 'error',
      comment: 'The webview runs in a browser frame.',
      from: { path: '^webview/' },
      to: { dependencyTypes: ['core'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|dist|test/fixtures)' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
  },
};
