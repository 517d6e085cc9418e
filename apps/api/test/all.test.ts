// One process for every API test file: PGlite templates are made once and cloned (STACK.md).
import './app/envelope.test.js';
import './app/routes.test.js';
import './app/fuzz.test.js';
import './app/web.test.js';
import './routes/news.test.js';
import './routes/competition.test.js';
import './routes/contact.test.js';
import './routes/seed.test.js';
import './routes/auth.test.js';
import './routes/members.test.js';
import './routes/schedule.test.js';
import './routes/chat.test.js';
import './routes/admin.test.js';
import './routes/punchout.test.js';
import './storage/s3.test.js';
import './server/server.test.js';
