/** The two origins of the e2e run (playwright.config.ts starts them; fixtures register them). */
export const SERVICE_URL = 'http://localhost:8787';
export const PARTNER_URL = 'http://localhost:8788';
