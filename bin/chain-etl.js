#!/usr/bin/env node
import { hideBin } from 'yargs/helpers';
import { endQuietlyWhenOutputCloses, runCli } from '../dist/bundle/main.js';

endQuietlyWhenOutputCloses();
const code = await runCli(hideBin(process.argv));
if (code !== 0) process.exit(code);
