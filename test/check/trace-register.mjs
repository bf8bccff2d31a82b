// `node --import ./trace-register.mjs …`: installs trace-hooks.mjs in the spawned process.
import { register } from 'node:module';

register('./trace-hooks.mjs', import.meta.url);
