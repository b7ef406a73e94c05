// `node --import riverse/register …`: load TypeScript tool files the way the registry does
// (enums and parameter properties included) outside Riverse, e.g. in a tool's own tests.
import './core/node-version.ts';
import { registerTypeScriptHooks } from './tool-runtime/typescript-hooks.ts';

registerTypeScriptHooks();
