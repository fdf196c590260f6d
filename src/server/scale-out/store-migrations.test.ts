import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { migrationChecksum } from '../../core/index.ts';
import { storeMigrations } from './server-migrations.ts';

// A migration applied to a database is checked against its checksum on every start: its text
// must never change once shipped, however the source that builds it is arranged (several are
// built from shared pieces).
const shipped: Record<number, string> = {
  100: '33853dcb0d7f7d5885be1b978fe73a9bffb218cc313ad9bf361238fc39fd481a',
  101: '0ae1522a27cb04fb8eb2ca827b6b08d3edeeb816bbd129c8b96e7b4514eea30e',
  200: '9c0fc12794ade252e7bfb7f9776a883b07e51b6fbd535e73580cb3f4aed83def',
  201: '37287b02bedaef0e780bea4d615e837d4a35b054a05a73f16d2bcd1ad223a202',
  202: 'e4b826d734d9a9b5f4758fab0c6217f2832ac346bbc951f06a6a135c85c8035b',
  203: '89472ee01378eafd066b141c4d9a7c9896ce69669ead5e2d7e1c8ed269828821',
  300: '1463cc63628639c6aae7843169129dc614ca8511756a0bbd2a3c6f18d4be71f8',
  301: '3b8dd460c3a4a0b09f8a01596b1ce0f8c92d0dd6e0fcdf243ed1ebe192011296',
  302: '24aa3b37c375ba0304343e20d6fc6b52107c04f77d5325910bb4359edb9c8131',
  303: '50194b5f24f476bd0a1ed86a4b45dff20714980e1ab083de98d5445e0effba4f',
  304: '33002068c90778db01669acbbb3db255e495503ac365b0395b91052853b314b1',
  305: 'b2b7858be53ab751cd24a0fef6e64ccc5b18795dcafe310373d93270d1d28889',
  600: 'd7c2af10efe4408a2ee4d9ae6315eaf65e532cfc7e8480eb9fc4b559c13e8f83',
  700: '2dcb69a307aadeec489a62cda3ba605410d6df86f0f0af5e0cc71df3933a5e48',
  800: '1dba23674d8bbf78925ae6bc584eed7b313a62b469271a8b1c46fbe62f65c8b1',
  900: 'cb2101f52efcb2c3d48b80a1466a9111b420085153cc1068b44d5d32940bdb1d',
  901: '3e316752df704a0b1a1a2f63f81ff65a4e20cd8876fbd6140a93d544ec2ca567',
  920: '692ea0c9028ee13fc6cfdece75c541e732d79a1e502e213652f5e2bb8e6fe617',
  921: '7cce95cdc6924c9d11060fdd4fd1eb17d62c68df896220f6082e32c0c4e57d8b',
  940: '88d06d823d83b564c8678b5c1b72a6076237c230f7511f13438dd3de3eb0c918',
  941: 'c3a1cf278a7508370f9a089fe60fcd4ed651d99ffae3fb91776a7d2a23f60cef',
  960: '59583d4312f05f19682e35211db0b89e9e3c418cc94383f3e4c02cfa0c170b27',
  970: 'e976bf481279c61e4db6b173fa9bd154f1b3396bec3bfee7a099c39a12600e4b',
};

describe('the store’s schema migrations', () => {
  it('keep the exact text they shipped with', () => {
    assert.deepEqual(
      Object.fromEntries(
        storeMigrations().map((migration) => [migration.version, migrationChecksum(migration)]),
      ),
      shipped,
    );
  });
});
