// Splits a byte stream carrying back-to-back JSON values into one text per value.
//
// RFC 7047 runs JSON-RPC over a raw stream with no framing: no length prefix and no delimiter.
// One read may end in the middle of a message or carry several messages. JSON.parse only accepts
// exactly one complete value, so it cannot tell us where a message ends; we find the end
// ourselves by tracking bracket depth, skipping brackets that sit inside strings (a quote inside a
// string is always escaped, so the string state needs only the escape flag), and hand each
// complete value to JSON.parse afterwards.
//
// Input is text: callers decode bytes with a StringDecoder so that a multi-byte UTF-8 character
// split across two reads arrives whole.

export class JsonValueSplitter {
    private buffer = "";
    /** Index in `buffer` where scanning resumes; everything before it has been classified. */
    private scanned = 0;
    /** Index in `buffer` where the value being assembled starts, or -1 between values. */
    private start = -1;
    private depth = 0;
    private inString = false;
    private escaped = false;

    /** Feeds more text; returns the texts of all values completed by it, in order. */
    push(text: string): string[] {
        this.buffer += text;
        const complete: string[] = [];
        const buffer = this.buffer;
        for (let i = this.scanned; i < buffer.length; i++) {
            const c = buffer[i];
            if (this.depth === 0) {
                if (c === " " || c === "\n" || c === "\r" || c === "\t") continue;
                if (c !== "{" && c !== "[") {
                    throw new Error(`OVSDB stream: expected "{" or "[" to start a JSON-RPC message, got ${JSON.stringify(c)}`);
                }
                this.start = i;
                this.depth = 1;
            } else if (this.inString) {
                if (this.escaped) this.escaped = false;
                else if (c === "\\") this.escaped = true;
                else if (c === '"') this.inString = false;
            } else if (c === '"') {
                this.inString = true;
            } else if (c === "{" || c === "[") {
                this.depth++;
            } else if (c === "}" || c === "]") {
                this.depth--;
                if (this.depth === 0) {
                    complete.push(buffer.slice(this.start, i + 1));
                    this.start = -1;
                }
            }
        }
        // Keep only the unfinished value so the buffer never grows past one message.
        if (this.start === -1) {
            this.buffer = "";
            this.scanned = 0;
        } else {
            this.buffer = buffer.slice(this.start);
            this.scanned = this.buffer.length;
            this.start = 0;
        }
        return complete;
    }

    /** True when a value has started but not yet ended (the stream closed mid-message). */
    get partial(): boolean {
        return this.start !== -1;
    }
}
