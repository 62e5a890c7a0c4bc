// htm bound to Preact's h: components are written as tagged templates, with no build step.
import { h } from "preact";
import htm from "htm";

export const html = htm.bind(h);
