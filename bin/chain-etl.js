#!/usr/bin/env node
import { hideBin } from 'yargs/helpers';
import { runCli } from '../dist/bundle/main.js';

const code = await runCli(hideBin(process.argv));
if (code !== 0) process.exit(code);
