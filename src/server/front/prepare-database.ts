// Run once by the first process of several (cluster-primary.ts) before it starts the serving
// processes: migrations, the admin account, the setup link and the demo content, in a process of
// its own, so the first process (which then only watches the others) does not keep the memory of
// everything this loads for the whole life of the server. Exits 0 when done, 1 after saying why.
import { loadConfig } from '../config.ts';
import { prepareApp } from '../bootstrap.ts';
import { describeStartFailure } from './start-failure.ts';

const config = loadConfig();
try {
  const prepared = await prepareApp(config);
  prepared.sqlite.close();
} catch (error) {
  console.error(describeStartFailure(error, config));
  process.exit(1);
}
