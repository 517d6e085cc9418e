export * from './errors.js';
export * from './common.js';
export * from './auth.js';
export * from './user.js';
export * from './schedule.js';
export * from './competition.js';
export * from './news.js';
export * from './contact.js';
