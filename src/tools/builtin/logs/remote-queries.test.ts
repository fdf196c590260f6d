import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cloudWatchFilterPattern } from './cloudwatch-filter-pattern.ts';
import { datadogSearchQuery } from './datadog-query.ts';
import { lokiCountQuery, lokiLogQuery } from './logql.ts';

describe('queries sent to remote log back ends', () => {
  it('LogQL: selects every service stream when no service is given, and escapes regex and quotes', () => {
    assert.equal(lokiLogQuery({ limit: 1 }, 'service'), '{service=~".+"}');
    assert.equal(
      lokiLogQuery({ service: 'api.v2', contains: 'said "50% (x)"', limit: 1 }, 'app'),
      String.raw`{app=~"(?i)api\\.v2"} |~ "(?i)said \"50% \\(x\\)\""`,
    );
    assert.equal(
      lokiLogQuery({ level: 'Warning', status: { from: 404, to: 404 }, limit: 1 }, 'service'),
      '{service=~".+"} | json | level=~"(?i)warn|warning" | status=404 | __error__=""',
    );
    assert.equal(lokiCountQuery('{a="b"}', 3_600_000), 'sum(count_over_time({a="b"} [3600000ms]))');
  });

  it('CloudWatch: compares exactly what its regexes cannot say, and filters nothing when empty', () => {
    assert.equal(cloudWatchFilterPattern({ limit: 1 }), '');
    assert.equal(
      cloudWatchFilterPattern({ service: 'api.v2', limit: 1 }),
      String.raw`{ $.service = %^[Aa][Pp][Ii]\.[Vv]2$% }`,
    );
    assert.equal(
      cloudWatchFilterPattern({ service: '결제 서비스', limit: 1 }),
      '{ $.service = "결제 서비스" }',
    );
    assert.equal(
      cloudWatchFilterPattern({ status: { from: 404, to: 404 }, contains: 'say "hi"', limit: 1 }),
      String.raw`{ $.status = 404 && $.message = "*say \"hi\"*" }`,
    );
  });

  it('Datadog: lower-cases the service, maps warning to warn, quotes values with spaces', () => {
    assert.equal(datadogSearchQuery({ limit: 1 }), '*');
    assert.equal(
      datadogSearchQuery({
        service: 'Payment Service',
        level: 'WARNING',
        status: { from: 502, to: 502 },
        limit: 1,
      }),
      'service:"payment service" status:warn @http.status_code:502',
    );
    assert.equal(
      datadogSearchQuery({ contains: 'a "quoted" word', limit: 1 }),
      String.raw`"a \"quoted\" word"`,
    );
  });
});
