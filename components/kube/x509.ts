// X.509 pieces the program's certificates share (the identity webhook's, IPsec's): Node's crypto
// makes the keys; node-forge writes the certificates, which Node's crypto can read but not create.
import { generateKeyPairSync, randomBytes } from "node:crypto";
import type * as Forge from "node-forge";

/** Loaded on use: only a program (or provider host) that makes a certificate pays for it. */
export const forge = (): typeof Forge => require("node-forge") as typeof Forge;

export interface KeyPair {
    privateKey: Forge.pki.rsa.PrivateKey;
    publicKey: Forge.pki.PublicKey;
}

export function newKeyPair(): KeyPair {
    const k = generateKeyPairSync("rsa", { modulusLength: 2048 });
    return {
        privateKey: forge().pki.privateKeyFromPem(
            k.privateKey.export({ type: "pkcs1", format: "pem" }).toString(),
        ) as Forge.pki.rsa.PrivateKey,
        publicKey: forge().pki.publicKeyFromPem(k.publicKey.export({ type: "spki", format: "pem" }).toString()),
    };
}

/** An unsigned certificate for `commonName`, valid from `now` to `notAfter`. */
export function newCertificate(commonName: string, publicKey: Forge.pki.PublicKey, now: Date, notAfter: Date): Forge.pki.Certificate {
    const cert = forge().pki.createCertificate();
    cert.publicKey = publicKey;
    // Positive, random: two certificates never share a serial.
    cert.serialNumber = "01" + randomBytes(15).toString("hex");
    cert.validity.notBefore = now;
    cert.validity.notAfter = notAfter;
    cert.setSubject([{ name: "commonName", value: commonName }]);
    return cert;
}

/** A self-signed CA that signs leaf certificates only. */
export function selfSignedCa(commonName: string, keys: KeyPair, now: Date, notAfter: Date): Forge.pki.Certificate {
    const ca = newCertificate(commonName, keys.publicKey, now, notAfter);
    ca.setIssuer(ca.subject.attributes);
    ca.setExtensions([
        { name: "basicConstraints", cA: true, pathLenConstraint: 0, critical: true },
        { name: "keyUsage", keyCertSign: true, cRLSign: true, critical: true },
    ]);
    ca.sign(keys.privateKey, forge().md.sha256.create());
    return ca;
}
