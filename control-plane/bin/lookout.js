#!/usr/bin/env node
import '../dist/cli/lookout-cli.js';
