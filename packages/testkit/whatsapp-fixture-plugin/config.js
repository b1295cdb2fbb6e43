// The light config entry of the WhatsApp channel (schema, doctor rules, capabilities), unchanged.
import { channelBundle } from "./channel.js";

const { default: config } = await import(channelBundle("config.js"));
export default config;
