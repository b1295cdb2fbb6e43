// The light config entry of the WhatsApp channel (schema, doctor rules, capabilities), unchanged.
export { default } from "../../../extensions/whatsapp/dist/bundle/config.js";
