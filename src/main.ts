// Composition root: reads configuration, wires the capabilities together and starts
// the server. Only the graph runtime exists so far; the HTTP server, the CLI, models,
// tools, knowledge base and agents arrive with their issues (see README "Status").
process.stderr.write(
  'yeoul: the server is not built yet — this checkout has the graph runtime only (src/graph). ' +
    'Try `npm test` or `npm run bench:graph`.\n',
);
process.exitCode = 1;
