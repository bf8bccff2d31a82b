// Runs one `rulec registry …` command through the CLI's registry module (what
// dist/cli/bin.js calls for `rulec registry`), without loading the compiler.
// Writes "go" to stderr once loaded, so a test can kill it during the operation.
const { registryCommand } = await import('../../../dist/cli/commands/registry/index.js');
const transitions = await import('../../../dist/cli/commands/registry/transitions.js');
if (process.argv[2] === 'publish') {
  // Warm the manifest schema so the kill window is the operation, not the validator's compilation.
  await import('../../../dist/registry/bundle-blobs.js');
  const { parseManifestRoot } = await import('../../../dist/bundle/parse-manifest.js');
  parseManifestRoot((await import('node:fs')).readFileSync(`${process.argv[3]}/manifest.json`));
}
void transitions;
const io = { out: (t) => process.stdout.write(t), err: (t) => process.stderr.write(t), cwd: process.cwd() };
process.stderr.write('go\n');
process.exitCode = await registryCommand(process.argv.slice(2), io);
