/**
 * What the sender reads when the inbox gives up on their message: it was handled `attempts` times
 * and every handling was cut off (the gateway stopped or crashed each time). No config keys or
 * internals: a whole group may see it.
 */
export function gaveUpNotice(attempts: number): string {
  return `Sorry, I could not answer this message: handling it was interrupted ${attempts} times, so I stopped trying. Please send it again if you still need an answer.`;
}
