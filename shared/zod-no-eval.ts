/**
 * For code that runs under the app's Content-Security-Policy (the renderer): turns off zod's
 * compiled fast path, whose `new Function` probe a CSP without 'unsafe-eval' blocks and reports as
 * a violation even though zod catches it. Import it (for its effect) before any module that
 * builds a schema; the Node side does not import it and keeps the fast path.
 */
import { z } from 'zod';

z.config({ jitless: true });
