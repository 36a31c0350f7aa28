// Java JCE (AES/GCM/NoPadding, GCMParameterSpec) side of gcmkit's interop check.
//   verify FILE        decrypt every case (and re-encrypt it), exit 1 on any mismatch
//   generate N SEED    print N random cases encrypted with the JCE
// Case lines: key iv aad pt ct tag, hex, "-" for empty. SunJCE accepts tags of 96..128 bits.
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import java.io.*;
import java.nio.file.*;
import java.util.*;

public class Interop {
    static byte[] unhex(String s) {
        if (s.equals("-")) return new byte[0];
        byte[] b = new byte[s.length() / 2];
        for (int i = 0; i < b.length; i++) b[i] = (byte) Integer.parseInt(s.substring(2 * i, 2 * i + 2), 16);
        return b;
    }

    static String hx(byte[] b) {
        if (b.length == 0) return "-";
        StringBuilder sb = new StringBuilder();
        for (byte x : b) sb.append(String.format("%02x", x));
        return sb.toString();
    }

    static byte[] run(int mode, byte[] key, byte[] iv, byte[] aad, byte[] in, int tagLen) throws Exception {
        Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
        c.init(mode, new SecretKeySpec(key, "AES"), new GCMParameterSpec(tagLen * 8, iv));
        c.updateAAD(aad);
        return c.doFinal(in);
    }

    public static void main(String[] a) throws Exception {
        if (a[0].equals("verify")) {
            int n = 0, bad = 0;
            for (String line : Files.readAllLines(Paths.get(a[1]))) {
                String[] p = line.trim().split("\\s+");
                byte[] key = unhex(p[0]), iv = unhex(p[1]), aad = unhex(p[2]), pt = unhex(p[3]), ct = unhex(p[4]), tag = unhex(p[5]);
                byte[] ctTag = new byte[ct.length + tag.length];
                System.arraycopy(ct, 0, ctTag, 0, ct.length);
                System.arraycopy(tag, 0, ctTag, ct.length, tag.length);
                boolean ok;
                try {
                    ok = Arrays.equals(run(Cipher.DECRYPT_MODE, key, iv, aad, ctTag, tag.length), pt)
                        && Arrays.equals(run(Cipher.ENCRYPT_MODE, key, iv, aad, pt, tag.length), ctTag);
                } catch (Exception e) {
                    ok = false;
                }
                if (!ok) {
                    bad++;
                    System.err.printf("case %d: mismatch (key %d B, iv %d B, tag %d B)%n", n, key.length, iv.length, tag.length);
                }
                n++;
            }
            System.out.printf("java verify: %d passed, %d failed%n", n - bad, bad);
            System.exit(bad > 0 ? 1 : 0);
        } else {
            int n = Integer.parseInt(a[1]);
            Random r = new Random(Long.parseLong(a[2]));
            PrintStream out = new PrintStream(new BufferedOutputStream(System.out));
            int[] keys = {16, 24, 32}, tags = {16, 15, 14, 13, 12};
            for (int i = 0; i < n; i++) {
                byte[] key = new byte[keys[r.nextInt(3)]], iv = new byte[1 + r.nextInt(128)], aad = new byte[r.nextInt(100)];
                int[] lens = {0, 1, 15, 16, 17, r.nextInt(5000)};
                byte[] pt = new byte[lens[r.nextInt(lens.length)]];
                r.nextBytes(key); r.nextBytes(iv); r.nextBytes(aad); r.nextBytes(pt);
                int tagLen = tags[r.nextInt(tags.length)];
                byte[] ctTag = run(Cipher.ENCRYPT_MODE, key, iv, aad, pt, tagLen);
                out.println(hx(key) + " " + hx(iv) + " " + hx(aad) + " " + hx(pt) + " "
                    + hx(Arrays.copyOfRange(ctTag, 0, pt.length)) + " " + hx(Arrays.copyOfRange(ctTag, pt.length, ctTag.length)));
            }
            out.flush();
        }
    }
}
