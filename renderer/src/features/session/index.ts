/**
 * Session: signing a browser in and out of a team server (nothing on the desktop). What the shell
 * may use of it is exported here. It imports no other feature.
 */
export { sessionRefusal } from './api';
export { SessionBadge } from './SessionBadge';
export { SignInScreen } from './SignInScreen';
