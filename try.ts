import { readDumpFiles } from './src/restore/dump';
import { explainDump } from './src/explain/explain';
const r = explainDump(readDumpFiles(process.argv.slice(2)));
console.log(r.plan.cluster.timeline.all().slice(0,80).map(e=>`${e.at} ${e.component} ${e.text}`).join('\n'));
