// Colour on the terminal: only when the stream is a terminal and NO_COLOR is unset or empty
// (https://no-color.org), so pipes, logs and CI output stay plain text.

const CODES = { red: 31, green: 32, yellow: 33, bold: 1 } as const;
export type Style = keyof typeof CODES;

export function colourOn(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): boolean {
    return stream.isTTY === true && !env.NO_COLOR;
}

/** `text` in `style` when the stream takes colour, else unchanged. */
export function paint(stream: { isTTY?: boolean }, style: Style, text: string, env: NodeJS.ProcessEnv = process.env): string {
    return colourOn(stream, env) ? `\x1b[${CODES[style]}m${text}\x1b[0m` : text;
}
