// The light config entry: the schema and streaming defaults of channels.loopback, for config
// validation and doctor (imports only the SDK through the testkit build, never the platform).
import { loopbackChannelConfig } from "../dist/loopback/config.js";

export default loopbackChannelConfig("loopback");
