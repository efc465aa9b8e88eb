import Bowser from 'bowser';

/** What is kept of a User-Agent: enough to name any browser, not a whole header's worth. */
export const USER_AGENT_MAX = 512;

const major = (version: string | undefined) => version?.split('.')[0];

const FORMS: Record<string, string> = { mobile: 'phone', tablet: 'tablet', tv: 'TV' };

/**
 * A session's device as its owner knows it: "Firefox 128 on Linux", "Safari 17 on iOS (phone)".
 * A client that is not a browser is named by its first product token ("curl 8.4.0").
 */
export function deviceName(userAgent: string | null): string | null {
  if (!userAgent) return null;
  const { browser, os, platform } = Bowser.parse(userAgent);
  if (!browser.name) {
    const token = /^([\w.-]{1,40})(?:\/([\w.-]{1,20}))?/.exec(userAgent);
    return token ? [token[1], token[2]].filter(Boolean).join(' ') : null;
  }
  const name = [browser.name, major(browser.version)].filter(Boolean).join(' ');
  const form = platform.type ? FORMS[platform.type] : undefined;
  return `${name}${os.name ? ` on ${os.name}` : ''}${form ? ` (${form})` : ''}`;
}
