/**
 * Under mutation testing a property only has to fail, not explain itself: fast-check stops at the
 * first failing run instead of shrinking it (which can take longer than the run that found it).
 */
import fc from 'fast-check';

fc.configureGlobal({ endOnFailure: true });
