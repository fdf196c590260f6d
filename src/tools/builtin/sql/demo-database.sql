-- Yeoul demo database: a small company with five teams, their people and yearly budgets.
-- Amounts are in Korean won (KRW); 100000000 = 1억원. Loaded by ensure-demo-database.ts.

CREATE TABLE teams (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,          -- Korean name, e.g. 플랫폼개발팀
  name_en TEXT NOT NULL,              -- English name, e.g. Platform Engineering
  location TEXT NOT NULL,
  founded_on TEXT NOT NULL            -- ISO date, YYYY-MM-DD
);

CREATE TABLE employees (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,                 -- Korean name
  name_en TEXT NOT NULL,              -- romanised name
  team_id INTEGER NOT NULL REFERENCES teams (id),
  role TEXT NOT NULL,
  salary INTEGER NOT NULL,            -- yearly, KRW
  hired_on TEXT NOT NULL,             -- ISO date, YYYY-MM-DD
  email TEXT NOT NULL UNIQUE
);

CREATE TABLE budgets (
  team_id INTEGER NOT NULL REFERENCES teams (id),
  year INTEGER NOT NULL,
  amount INTEGER NOT NULL,            -- KRW
  PRIMARY KEY (team_id, year)
);

INSERT INTO teams (id, name, name_en, location, founded_on) VALUES
  (1, '플랫폼개발팀', 'Platform Engineering', '서울 강남', '2018-03-02'),
  (2, '데이터분석팀', 'Data Analytics', '서울 강남', '2019-07-01'),
  (3, 'AI연구팀', 'AI Research', '성남 판교', '2021-01-04'),
  (4, '마케팅팀', 'Marketing', '서울 성수', '2018-03-02'),
  (5, '고객지원팀', 'Customer Support', '부산 해운대', '2020-05-11');

INSERT INTO employees (id, name, name_en, team_id, role, salary, hired_on, email) VALUES
  (1, '김민준', 'Kim Minjun', 1, '팀장 (Team Lead)', 98000000, '2018-03-02', 'minjun.kim@yeoul.example'),
  (2, '이서연', 'Lee Seoyeon', 1, '시니어 백엔드 개발자 (Senior Backend Engineer)', 82000000, '2019-02-18', 'seoyeon.lee@yeoul.example'),
  (3, '박도윤', 'Park Doyun', 1, '백엔드 개발자 (Backend Engineer)', 61000000, '2021-09-06', 'doyun.park@yeoul.example'),
  (4, '최지우', 'Choi Jiwoo', 1, '프론트엔드 개발자 (Frontend Engineer)', 58000000, '2022-03-14', 'jiwoo.choi@yeoul.example'),
  (5, '정하은', 'Jung Haeun', 1, 'DevOps 엔지니어 (DevOps Engineer)', 67000000, '2020-11-02', 'haeun.jung@yeoul.example'),
  (6, 'Daniel Carter', 'Daniel Carter', 1, '사이트 신뢰성 엔지니어 (Site Reliability Engineer)', 72000000, '2023-04-03', 'daniel.carter@yeoul.example'),
  (7, '강서준', 'Kang Seojun', 2, '팀장 (Team Lead)', 92000000, '2019-07-01', 'seojun.kang@yeoul.example'),
  (8, '조수아', 'Jo Sua', 2, '데이터 분석가 (Data Analyst)', 56000000, '2022-01-10', 'sua.jo@yeoul.example'),
  (9, '윤예준', 'Yoon Yejun', 2, '데이터 엔지니어 (Data Engineer)', 64000000, '2020-08-17', 'yejun.yoon@yeoul.example'),
  (10, '장지아', 'Jang Jia', 2, '데이터 분석가 (Data Analyst)', 49000000, '2023-07-03', 'jia.jang@yeoul.example'),
  (11, 'Priya Sharma', 'Priya Sharma', 2, 'BI 엔지니어 (BI Engineer)', 60000000, '2021-05-24', 'priya.sharma@yeoul.example'),
  (12, '임시우', 'Lim Siwoo', 3, '팀장 (Team Lead)', 115000000, '2021-01-04', 'siwoo.lim@yeoul.example'),
  (13, '한지호', 'Han Jiho', 3, '머신러닝 엔지니어 (ML Engineer)', 88000000, '2021-03-15', 'jiho.han@yeoul.example'),
  (14, '오유나', 'Oh Yuna', 3, '연구원 (Research Scientist)', 95000000, '2022-02-07', 'yuna.oh@yeoul.example'),
  (15, '서은우', 'Seo Eunwoo', 3, '머신러닝 엔지니어 (ML Engineer)', 79000000, '2023-09-11', 'eunwoo.seo@yeoul.example'),
  (16, '신채원', 'Shin Chaewon', 3, '연구 인턴 (Research Intern)', 36000000, '2025-01-06', 'chaewon.shin@yeoul.example'),
  (17, '권준서', 'Kwon Junseo', 4, '팀장 (Team Lead)', 86000000, '2018-03-02', 'junseo.kwon@yeoul.example'),
  (18, '황다은', 'Hwang Daeun', 4, '브랜드 매니저 (Brand Manager)', 62000000, '2019-10-14', 'daeun.hwang@yeoul.example'),
  (19, '송민재', 'Song Minjae', 4, '퍼포먼스 마케터 (Performance Marketer)', 54000000, '2022-06-20', 'minjae.song@yeoul.example'),
  (20, 'Emily Watson', 'Emily Watson', 4, '콘텐츠 마케터 (Content Marketer)', 51000000, '2023-02-13', 'emily.watson@yeoul.example'),
  (21, '유하린', 'Yoo Harin', 5, '팀장 (Team Lead)', 74000000, '2020-05-11', 'harin.yoo@yeoul.example'),
  (22, '배승현', 'Bae Seunghyun', 5, '상담원 (Support Agent)', 38000000, '2021-08-02', 'seunghyun.bae@yeoul.example'),
  (23, '문소율', 'Moon Soyul', 5, '상담원 (Support Agent)', 37000000, '2022-11-21', 'soyul.moon@yeoul.example'),
  (24, '노태윤', 'Noh Taeyun', 5, '기술 지원 엔지니어 (Technical Support Engineer)', 52000000, '2021-04-12', 'taeyun.noh@yeoul.example'),
  (25, '하지민', 'Ha Jimin', 5, '상담원 (Support Agent)', 35000000, '2024-03-04', 'jimin.ha@yeoul.example');

-- The data analytics team's 2024 budget is 1억원 (100,000,000 KRW), the figure of the chat scenarios.
INSERT INTO budgets (team_id, year, amount) VALUES
  (1, 2023, 420000000), (1, 2024, 450000000), (1, 2025, 480000000),
  (2, 2023, 85000000), (2, 2024, 100000000), (2, 2025, 120000000),
  (3, 2023, 600000000), (3, 2024, 750000000), (3, 2025, 900000000),
  (4, 2023, 300000000), (4, 2024, 280000000), (4, 2025, 320000000),
  (5, 2023, 150000000), (5, 2024, 160000000), (5, 2025, 170000000);
